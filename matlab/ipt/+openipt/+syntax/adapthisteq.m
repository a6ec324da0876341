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
nv = openipt.syntax.plain_values(nv);
args = [{'I', in{1}}, nv];
end
