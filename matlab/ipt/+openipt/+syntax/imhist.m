% SPDX-License-Identifier: Apache-2.0
function args = imhist(nout, in)
% [counts, binLocations] = imhist(I), imhist(I, n). Without outputs imhist
% plots: that, and imhist(X, map), fall through.
args = [];
if nout == 0 || nout > 2 || isempty(in) || numel(in) > 2
  return;
end
args = {'I', in{1}};
if numel(in) == 2
  if ~isnumeric(in{2}) || ~isscalar(in{2})
    args = [];
    return;
  end
  args(end+1:end+2) = {'n', double(in{2})};
end
end
