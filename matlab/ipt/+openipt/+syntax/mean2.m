% SPDX-License-Identifier: Apache-2.0
function args = mean2(nout, in)
% mean2(A).
args = openipt.syntax.positional(in, {'A'}, nout, 1);
end
