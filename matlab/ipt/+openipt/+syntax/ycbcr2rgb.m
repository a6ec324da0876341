% SPDX-License-Identifier: Apache-2.0
function args = ycbcr2rgb(nout, in)
% ycbcr2rgb(YCBCR) of an image or a colormap.
args = openipt.syntax.positional(in, {'YCBCR'}, nout, 1);
end
