% SPDX-License-Identifier: Apache-2.0
function args = rgb2ycbcr(nout, in)
% rgb2ycbcr(RGB) of an image or a colormap.
args = openipt.syntax.positional(in, {'RGB'}, nout, 1);
end
