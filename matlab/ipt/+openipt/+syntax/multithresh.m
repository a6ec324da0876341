% SPDX-License-Identifier: Apache-2.0
function args = multithresh(nout, in)
% [thresh, metric] = multithresh(A), multithresh(A, N).
args = openipt.syntax.positional(in, {'A', 'N'}, nout, 2);
end
