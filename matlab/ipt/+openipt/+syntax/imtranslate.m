% SPDX-License-Identifier: Apache-2.0
function args = imtranslate(nout, in)
% imtranslate(A, translation), then a method and the OutputView and
% FillValues name-value pairs; a spatial referencing object and the RB
% output fall through.
args = [];
if numel(in) < 2 || nout > 1 || ~isnumeric(in{2}) || numel(in{2}) ~= 2
  return;
end
args = {'A', in{1}, 'translation', double(in{2}(:)')};
rest = in(3:end);
if mod(numel(rest), 2) == 1
  m = lower(char(rest{1}));
  if ~any(strcmp(m, {'nearest', 'linear', 'cubic', 'bilinear', 'bicubic'}))
    args = [];
    return;
  end
  m = strrep(strrep(m, 'bilinear', 'linear'), 'bicubic', 'cubic');
  args(end+1:end+2) = {'method', m};
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'OutputView', 'FillValues'});
if ~ok
  args = [];
  return;
end
nv = openipt.syntax.plain_values(nv);
args = [args, nv];
end
