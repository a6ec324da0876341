% SPDX-License-Identifier: Apache-2.0
function args = morphology(nout, in)
% imdilate and imerode: (A, SE), (A, SE, 'same'); SE a strel or a neighbourhood array.
% 'full', 'ispacked', arrays of strels, offsetstrel and neighbourhood arrays
% with values other than 0 and 1 fall through.
args = [];
if numel(in) < 2 || numel(in) > 3 || nout > 1
  return;
end
if numel(in) == 3 && ~strcmpi(char(in{3}), 'same')
  return;
end
se = in{2};
if (isnumeric(se) || islogical(se)) && any(se(:) ~= 0 & se(:) ~= 1)
  return;  % a neighbourhood is 0s and 1s
end
[nh, heights] = openipt.syntax.nhood(se);
if isempty(nh)
  return;
end
args = {'A', in{1}, 'nhood', nh};
if ~isempty(heights)
  args(end+1:end+2) = {'heights', heights};
end
end
