% SPDX-License-Identifier: Apache-2.0
function args = rangefilt(nout, in)
% rangefilt(I), rangefilt(I, nhood): see local_filter.m.
args = openipt.syntax.local_filter(nout, in);
end
