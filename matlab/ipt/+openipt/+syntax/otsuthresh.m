% SPDX-License-Identifier: Apache-2.0
function args = otsuthresh(nout, in)
% [T, EM] = otsuthresh(counts).
args = openipt.syntax.positional(in, {'counts'}, nout, 2);
end
