% SPDX-License-Identifier: Apache-2.0
function args = normxcorr2(nout, in)
% normxcorr2(template, A); N-D template or A (Octave's extension) falls through.
args = [];
if numel(in) == 2 && (ndims(in{1}) > 2 || ndims(in{2}) > 2)
  return;
end
args = openipt.syntax.positional(in, {'template', 'A'}, nout, 1);
end
