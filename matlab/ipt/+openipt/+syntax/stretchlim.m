% SPDX-License-Identifier: Apache-2.0
function args = stretchlim(nout, in)
% stretchlim(I), stretchlim(I, tol) of a grayscale or RGB image; other
% channel counts and arrays of more than 3 dimensions fall through.
args = [];
if ~isempty(in) && ndims(in{1}) <= 3 && any(size(in{1}, 3) == [1 3])
  args = openipt.syntax.positional(in, {'I', 'tol'}, nout, 1);
end
end
