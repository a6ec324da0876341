% SPDX-License-Identifier: Apache-2.0
function args = wiener2(nout, in)
% [J, noise] = wiener2(I), wiener2(I, [m n]), wiener2(I, [m n], noise);
% wiener2(I, noise) (a scalar second argument), an N-D I and a window of
% more than two sizes (Octave's extensions) fall through.
args = [];
if isempty(in) || numel(in) > 3 || nout > 2 || ndims(in{1}) > 2 || ...
   (numel(in) >= 2 && (numel(in{2}) == 1 || numel(in{2}) > 2))
  return;
end
args = openipt.syntax.positional(in, {'I', 'size', 'noise'}, nout, 2);
end
