% SPDX-License-Identifier: Apache-2.0
function args = rgb2hsv(nout, in)
% rgb2hsv(RGB) of an image or a colormap.
args = openipt.syntax.positional(in, {'RGB'}, nout, 1);
end
