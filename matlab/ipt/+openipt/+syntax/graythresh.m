% SPDX-License-Identifier: Apache-2.0
function args = graythresh(nout, in)
% [T, EM] = graythresh(I).
args = [];
if numel(in) == 1 && nout <= 2
  args = {'I', in{1}};
end
end
