% SPDX-License-Identifier: Apache-2.0
function args = imfilter(nout, in)
% imfilter(A, h, options...): boundary ('symmetric', 'replicate', 'circular'
% or a number X), size ('same', 'full'), mode ('corr', 'conv').
args = [];
if numel(in) < 2 || nout > 1
  return;
end
args = {'A', in{1}, 'h', in{2}};
for k = 3:numel(in)
  v = in{k};
  if ischar(v) || isa(v, 'string')
    v = lower(char(v));
    switch v
      case {'symmetric', 'replicate', 'circular'}
        args(end+1:end+2) = {'boundary', v};
      case {'same', 'full'}
        args(end+1:end+2) = {'output', v};
      case {'corr', 'conv'}
        args(end+1:end+2) = {'mode', v};
      otherwise
        args = [];
        return;
    end
  elseif isnumeric(v) && isscalar(v) && isreal(v)
    args(end+1:end+4) = {'boundary', 'constant', 'X', double(v)};
  else
    args = [];
    return;
  end
end
end
