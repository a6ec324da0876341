% SPDX-License-Identifier: Apache-2.0
function args = imboxfilt(nout, in)
% imboxfilt(A), imboxfilt(A, filterSize), then Padding (text or a number)
% and NormalizationFactor name-value pairs.
args = [];
if isempty(in) || nout > 1
  return;
end
args = {'A', in{1}};
rest = in(2:end);
if ~isempty(rest) && isnumeric(rest{1})
  if ~isempty(rest{1})
    args(end+1:end+2) = {'filterSize', double(rest{1})};
  end
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'Padding', 'NormalizationFactor'});
if ~ok
  args = [];
  return;
end
for k = 1:2:numel(nv)
  if strcmp(nv{k}, 'Padding')
    args = [args, openipt.syntax.padding(nv{k+1})];
  else
    args(end+1:end+2) = {nv{k}, double(nv{k+1})};
  end
end
end
