% SPDX-License-Identifier: Apache-2.0
function args = stdfilt(nout, in)
% stdfilt(I), stdfilt(I, nhood): see local_filter.m.
args = openipt.syntax.local_filter(nout, in);
end
