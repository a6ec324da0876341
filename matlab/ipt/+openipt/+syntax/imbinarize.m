% SPDX-License-Identifier: Apache-2.0
function args = imbinarize(nout, in)
% imbinarize(I), imbinarize(I, 'global'), imbinarize(I, T),
% imbinarize(I, 'adaptive', Sensitivity / ForegroundPolarity pairs).
args = [];
if isempty(in) || nout > 1
  return;
end
args = {'I', in{1}};
if numel(in) == 1
  return;
end
v = in{2};
if isnumeric(v) || islogical(v)
  if numel(in) > 2
    args = [];
    return;
  end
  args(end+1:end+2) = {'T', double(v)};
  return;
end
method = lower(char(v));
if ~any(strcmp(method, {'global', 'adaptive'}))
  args = [];
  return;
end
args(end+1:end+2) = {'method', method};
[nv, ok] = openipt.syntax.name_values(in(3:end), {'Sensitivity', 'ForegroundPolarity'});
if ~ok || (strcmp(method, 'global') && ~isempty(nv))
  args = [];
  return;
end
for k = 1:2:numel(nv)
  if ischar(nv{k+1})
    nv{k+1} = lower(nv{k+1});
  end
end
args = [args, nv];
end
