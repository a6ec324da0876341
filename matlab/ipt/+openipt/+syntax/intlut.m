% SPDX-License-Identifier: Apache-2.0
function args = intlut(nout, in)
% intlut(A, LUT).
args = openipt.syntax.positional(in, {'A', 'LUT'}, nout, 1);
if iscell(args) && numel(in) ~= 2
  args = [];
end
end
