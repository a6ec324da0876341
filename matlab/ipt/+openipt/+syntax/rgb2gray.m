% SPDX-License-Identifier: Apache-2.0
function args = rgb2gray(nout, in)
% rgb2gray(RGB) for an m x n x 3 image; a colormap falls through.
args = [];
if numel(in) == 1 && nout <= 1
  s = size(in{1});
  if numel(s) == 3 && s(3) == 3
    args = {'RGB', in{1}};
  end
end
end
