% SPDX-License-Identifier: Apache-2.0
function args = padarray(nout, in)
% padarray(A, padsize), then padval or a method, then a direction. Padding
% beyond the second dimension, N-D arrays and complex values fall through.
args = [];
if numel(in) < 2 || numel(in) > 4 || nout > 1
  return;
end
A = in{1};
padsize = double(in{2});
if ndims(A) > 3 || ~isreal(A) || ~isnumeric(in{2}) || any(padsize(3:end) ~= 0)
  return;
end
args = {'A', A, 'padsize', padsize(1:min(2, numel(padsize)))};
for k = 3:numel(in)
  v = in{k};
  if ischar(v) || isa(v, 'string')
    v = lower(char(v));
    switch v
      case {'circular', 'replicate', 'symmetric'}
        args(end+1:end+2) = {'method', v};
      case {'pre', 'post', 'both'}
        args(end+1:end+2) = {'direction', v};
      otherwise
        args = [];
        return;
    end
  elseif (isnumeric(v) || islogical(v)) && isscalar(v) && isreal(v) && k == 3
    args(end+1:end+2) = {'padval', double(v)};
  elseif ~(isempty(v) && k == 3)
    args = [];
    return;
  end
end
end
