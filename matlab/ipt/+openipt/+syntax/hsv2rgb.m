% SPDX-License-Identifier: Apache-2.0
function args = hsv2rgb(nout, in)
% hsv2rgb(HSV) of an image or a colormap.
args = openipt.syntax.positional(in, {'HSV'}, nout, 1);
end
