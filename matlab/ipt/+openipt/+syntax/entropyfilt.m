% SPDX-License-Identifier: Apache-2.0
function args = entropyfilt(nout, in)
% entropyfilt(I), entropyfilt(I, nhood): see local_filter.m.
args = openipt.syntax.local_filter(nout, in);
end
