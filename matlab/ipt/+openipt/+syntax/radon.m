% SPDX-License-Identifier: Apache-2.0
function args = radon(nout, in)
% [R, xp] = radon(I), radon(I, theta); a numeric theta that is not a
% scalar or vector falls through.
args = [];
if numel(in) == 2 && isnumeric(in{2}) && ~isempty(in{2}) && ~isvector(in{2})
  return;
end
args = openipt.syntax.positional(in, {'I', 'theta'}, nout, 2);
end
