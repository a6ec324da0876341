% SPDX-License-Identifier: Apache-2.0
function args = imgradientxy(nout, in)
% [Gx, Gy] = imgradientxy(I), imgradientxy(I, method).
args = openipt.syntax.positional(in, {'I', 'method'}, nout, 2);
end
