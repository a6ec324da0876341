% SPDX-License-Identifier: Apache-2.0
function args = adapthisteq(nout, in)
% adapthisteq(I, Name, Value...): NumTiles, ClipLimit, NBins, Range,
% Distribution, Alpha.
args = [];
if isempty(in) || nout > 1
  return;
end
[nv, ok] = openipt.syntax.name_values(in(2:end), {'NumTiles', 'ClipLimit', 'NBins', 'Range', 'Distribution', 'Alpha'});
if ~ok
  return;
end
for k = 1:2:numel(nv)
  if ischar(nv{k+1})
    nv{k+1} = lower(nv{k+1});
  else
    nv{k+1} = double(nv{k+1});
  end
end
args = [{'I', in{1}}, nv];
end
