% SPDX-License-Identifier: Apache-2.0
function args = fspecial(nout, in)
% fspecial(type) and its documented arguments per type; N-D sizes fall
% through.
args = [];
if isempty(in) || nout > 1 || ~(ischar(in{1}) || isa(in{1}, 'string'))
  return;
end
type = lower(char(in{1}));
switch type
  case 'average', names = {'hsize'};
  case 'disk', names = {'radius'};
  case {'gaussian', 'log'}, names = {'hsize', 'sigma'};
  case {'laplacian', 'unsharp'}, names = {'alpha'};
  case 'motion', names = {'len', 'theta'};
  case {'prewitt', 'sobel'}, names = {};
  otherwise, return;
end
if numel(in) - 1 > numel(names)
  return;
end
args = {'type', type};
if any(strcmp(type, {'average', 'gaussian', 'log'})) && numel(in) >= 2 && numel(in{2}) > 2
  args = [];  % an N-D filter
  return;
end
for k = 2:numel(in)
  if ~isempty(in{k})
    args(end+1:end+2) = {names{k-1}, double(in{k})};
  end
end
end
