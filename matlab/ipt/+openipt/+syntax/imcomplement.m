% SPDX-License-Identifier: Apache-2.0
function args = imcomplement(nout, in)
% imcomplement(I).
args = [];
if numel(in) == 1 && nout <= 1
  args = {'I', in{1}};
end
end
