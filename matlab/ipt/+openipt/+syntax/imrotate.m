% SPDX-License-Identifier: Apache-2.0
function args = imrotate(nout, in)
% imrotate(I, angle), imrotate(I, angle, method), imrotate(I, angle, method, bbox).
args = [];
if numel(in) < 2 || numel(in) > 4 || nout > 1 || ~isnumeric(in{2}) || ~isscalar(in{2})
  return;
end
args = {'I', in{1}, 'angle', double(in{2})};
for k = 3:numel(in)
  v = lower(char(in{k}));
  switch v
    case {'nearest', 'bilinear', 'bicubic'}
      args(end+1:end+2) = {'method', v};
    case {'loose', 'crop'}
      args(end+1:end+2) = {'bbox', v};
    otherwise
      args = [];
      return;
  end
end
end
