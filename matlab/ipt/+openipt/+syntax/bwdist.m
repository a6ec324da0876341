% SPDX-License-Identifier: Apache-2.0
function args = bwdist(nout, in)
% [D, IDX] = bwdist(BW), bwdist(BW, method).
args = [];
if isempty(in) || numel(in) > 2 || nout > 2
  return;
end
args = {'BW', in{1}};
if numel(in) == 2
  args(end+1:end+2) = {'method', lower(char(in{2}))};
end
end
