% SPDX-License-Identifier: Apache-2.0
function args = integralImage(nout, in)
% integralImage(I), integralImage(I, orientation).
args = [];
if isempty(in) || numel(in) > 2 || nout > 1
  return;
end
args = {'I', in{1}};
if numel(in) == 2
  args(end+1:end+2) = {'orientation', lower(char(in{2}))};
end
end
