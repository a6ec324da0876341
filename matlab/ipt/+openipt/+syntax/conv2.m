% SPDX-License-Identifier: Apache-2.0
function args = conv2(nout, in)
% conv2(A,B), conv2(u,v,A), conv2(...,shape) -> ipt.conv2's arguments; [] for
% other forms.
args = [];
shape = {};
if numel(in) >= 3 && (ischar(in{end}) || isa(in{end}, 'string'))
  shape = {'shape', lower(char(in{end}))};
  in = in(1:end-1);
end
if nout > 1
  return;
elseif numel(in) == 2
  args = [{'A', in{1}, 'B', in{2}}, shape];
elseif numel(in) == 3
  args = [{'u', in{1}, 'v', in{2}, 'A', in{3}}, shape];
end
end
