% SPDX-License-Identifier: Apache-2.0
function args = im2single(nout, in)
% im2single(I); the 'indexed' form falls through.
args = [];
if numel(in) == 1 && nout <= 1
  args = {'I', in{1}};
end
end
