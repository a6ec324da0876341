% SPDX-License-Identifier: Apache-2.0
function args = adaptthresh(nout, in)
% adaptthresh(I), adaptthresh(I, sensitivity), then NeighborhoodSize,
% ForegroundPolarity and Statistic name-value pairs.
args = [];
if isempty(in) || nout > 1
  return;
end
args = {'I', in{1}};
rest = in(2:end);
if ~isempty(rest) && isnumeric(rest{1})
  if ~isempty(rest{1})
    args(end+1:end+2) = {'sensitivity', double(rest{1})};
  end
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'NeighborhoodSize', 'ForegroundPolarity', 'Statistic'});
if ~ok
  args = [];
  return;
end
nv = openipt.syntax.plain_values(nv);
args = [args, nv];
end
