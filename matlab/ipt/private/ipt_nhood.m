% SPDX-License-Identifier: Apache-2.0
function [nhood, heights] = ipt_nhood(se)
% The neighbourhood (logical) and the heights ([] when flat) of a
% structuring element: a strel object or a neighbourhood array. Returns
% nhood = [] for one OpenIPT does not take (an array of strels, offsetstrel,
% a packed or more than 2-D element).
heights = [];
nhood = [];
if (isnumeric(se) || islogical(se)) && isreal(se) && ndims(se) == 2
  nhood = logical(se ~= 0);
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
nhood = logical(n);
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
