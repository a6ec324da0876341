% SPDX-License-Identifier: Apache-2.0
function args = imadjust(nout, in)
% imadjust(I), imadjust(I, [low_in high_in]), then [low_out high_out] and
% gamma; [] keeps a default, and [] for [low_in high_in] is [0 1] (not the
% stretchlim limits of imadjust(I)). A colormap (m x 3), other
% channel counts and arrays of more than 3 dimensions fall through.
args = [];
if isempty(in) || numel(in) > 4 || nout > 1
  return;
end
s = size(in{1});
if numel(s) == 2 && s(2) == 3 && s(1) > 1 && isa(in{1}, 'double')
  return;
end
if numel(s) > 3 || ~any(size(in{1}, 3) == [1 3])
  return;
end
args = {'I', in{1}};
names = {'low_high_in', 'low_high_out', 'gamma'};
for k = 2:numel(in)
  v = in{k};
  if ~isnumeric(v)
    args = [];
    return;
  end
  if ~isempty(v)
    args(end+1:end+2) = {names{k-1}, double(v)};
  elseif k == 2
    args(end+1:end+2) = {names{1}, [0 1]};
  end
end
end
