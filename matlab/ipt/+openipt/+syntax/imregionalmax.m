% SPDX-License-Identifier: Apache-2.0
function args = imregionalmax(nout, in)
% imregionalmax(I), imregionalmax(I, conn) for conn 4 or 8.
args = openipt.syntax.positional(in, {'I', 'conn'}, nout, 1);
end
