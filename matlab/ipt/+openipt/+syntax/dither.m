% SPDX-License-Identifier: Apache-2.0
function args = dither(nout, in)
% dither(I) (grayscale to binary), dither(RGB, map), dither(RGB, map, Qm, Qe).
args = openipt.syntax.positional(in, {'I', 'map', 'Qm', 'Qe'}, nout, 1);
end
