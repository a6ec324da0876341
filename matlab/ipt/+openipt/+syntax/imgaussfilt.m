% SPDX-License-Identifier: Apache-2.0
function args = imgaussfilt(nout, in)
% imgaussfilt(A), imgaussfilt(A, sigma), then FilterSize, Padding (text or a
% number) and FilterDomain name-value pairs.
args = [];
if isempty(in) || nout > 1
  return;
end
args = {'A', in{1}};
rest = in(2:end);
if ~isempty(rest) && ~(ischar(rest{1}) || isa(rest{1}, 'string'))
  if ~isempty(rest{1})
    args(end+1:end+2) = {'sigma', double(rest{1})};
  end
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'FilterSize', 'Padding', 'FilterDomain'});
if ~ok
  args = [];
  return;
end
for k = 1:2:numel(nv)
  if strcmp(nv{k}, 'Padding')
    args = [args, openipt.syntax.padding(nv{k+1})];
  elseif strcmp(nv{k}, 'FilterSize')
    args(end+1:end+2) = {'FilterSize', double(nv{k+1})};
  else
    args(end+1:end+2) = {nv{k}, lower(nv{k+1})};
  end
end
end
