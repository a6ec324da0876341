% SPDX-License-Identifier: Apache-2.0
function [nh, heights] = nhood(se)
% The neighbourhood (logical) and the heights ([] when flat) of a
% structuring element: a strel object or a neighbourhood array. Returns
% nh = [] for one OpenIPT does not take (an array of strels, offsetstrel,
% a packed or more than 2-D element).
heights = [];
nh = [];
if (isnumeric(se) || islogical(se)) && isreal(se) && ndims(se) == 2
  nh = logical(se ~= 0);
  return;
end
if ~(isobject(se) || isa(se, 'strel')) || numel(se) ~= 1
  return;
end
try
  n = getnhood(se);
catch
  return;
end
if ndims(n) ~= 2
  return;
end
nh = logical(n);
flat = true;
try
  flat = isflat(se);
catch
end
if ~flat
  h = getheight(se);
  heights = double(h);
end
end
