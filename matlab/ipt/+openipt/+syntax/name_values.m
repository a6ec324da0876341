% SPDX-License-Identifier: Apache-2.0
function [nv, ok] = name_values(opts, names)
% Name-value pairs of OPTS whose names are among NAMES (case-insensitive,
% unambiguous leading parts too) with the catalogue's spelling; ok is false
% for an unknown name or a missing value. Text values become char.
nv = {};
ok = mod(numel(opts), 2) == 0;
if ~ok
  return;
end
for k = 1:2:numel(opts)
  n = opts{k};
  if ~(ischar(n) || (isa(n, 'string') && isscalar(n)))
    ok = false;
    return;
  end
  n = char(n);
  i = find(strcmpi(names, n));
  if isempty(i)
    i = find(strncmpi(names, n, numel(n)));
  end
  if numel(i) ~= 1
    ok = false;
    return;
  end
  v = opts{k+1};
  if isa(v, 'string')
    v = char(v);
  end
  nv(end+1:end+2) = {names{i}, v};
end
end
