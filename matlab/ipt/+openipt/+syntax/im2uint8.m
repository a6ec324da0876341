% SPDX-License-Identifier: Apache-2.0
function args = im2uint8(nout, in)
% im2uint8(I); the 'indexed' form falls through.
args = [];
if numel(in) == 1 && nout <= 1
  args = {'I', in{1}};
end
end
