% SPDX-License-Identifier: Apache-2.0
function args = ordfilt2(nout, in)
% ordfilt2(A, order, domain), then S (offsets) and/or padopt.
args = [];
if numel(in) < 3 || numel(in) > 5 || nout > 1
  return;
end
args = {'A', in{1}, 'order', double(in{2}), 'domain', logical(in{3})};
for k = 4:numel(in)
  v = in{k};
  if ischar(v) || isa(v, 'string')
    args(end+1:end+2) = {'padopt', lower(char(v))};
  elseif isnumeric(v) && k == 4
    args(end+1:end+2) = {'S', double(v)};
  else
    args = [];
    return;
  end
end
end
