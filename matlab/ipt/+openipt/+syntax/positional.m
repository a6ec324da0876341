% SPDX-License-Identifier: Apache-2.0
function args = positional(in, names, nout, maxout)
% The arguments IN given positionally as MATLAB's form f(a, b, c) lists
% them, named NAMES in that order ([] keeps a default); [] (not a cell) for
% more arguments than names, no first argument, or more than MAXOUT outputs.
args = [];
if isempty(in) || numel(in) > numel(names) || nout > maxout
  return;
end
args = {};
for k = 1:numel(in)
  v = in{k};
  if isa(v, 'string')
    v = char(v);
  end
  if ~(isempty(v) && ~ischar(v)) || k == 1
    args(end+1:end+2) = {names{k}, v};
  end
end
end
