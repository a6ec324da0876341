% SPDX-License-Identifier: Apache-2.0
function [nv, ok] = ipt_name_values(opts, names)
% Name-value pairs of OPTS whose names are among NAMES (matched case-
% insensitively, MATLAB's partial names included) as a name-value list with
% the catalogue's spelling. ok is false for an unknown name or a missing value.
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
  i = find(strncmpi(names, char(n), numel(char(n))));
  if numel(i) ~= 1
    i = find(strcmpi(names, char(n)));
  end
  if numel(i) ~= 1
    ok = false;
    return;
  end
  v = opts{k+1};
  if isa(v, 'string')
    v = char(v);
  end
  nv(end+1:end+2) = {names{i}, v}; %#ok<AGROW>
end
end
