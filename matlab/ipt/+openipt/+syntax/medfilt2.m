% SPDX-License-Identifier: Apache-2.0
function args = medfilt2(nout, in)
% medfilt2(A), medfilt2(A, [m n]), medfilt2(A, [m n], padopt), medfilt2(A, padopt).
args = [];
if isempty(in) || numel(in) > 3 || nout > 1
  return;
end
args = {'A', in{1}};
for k = 2:numel(in)
  v = in{k};
  if ischar(v) || isa(v, 'string')
    args(end+1:end+2) = {'padopt', lower(char(v))};
  elseif isnumeric(v) && numel(v) == 2
    args(end+1:end+2) = {'size', double(v(:)')};
  elseif ~isempty(v)
    args = [];
    return;
  end
end
end
