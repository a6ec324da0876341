% SPDX-License-Identifier: Apache-2.0
function args = imgradient(nout, in)
% [Gmag, Gdir] = imgradient(I), imgradient(I, method); imgradient(Gx, Gy) falls through.
args = openipt.syntax.positional(in, {'I', 'method'}, nout, 2);
end
