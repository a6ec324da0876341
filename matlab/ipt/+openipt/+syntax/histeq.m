% SPDX-License-Identifier: Apache-2.0
function args = histeq(nout, in)
% [J, T] = histeq(I), histeq(I, n), histeq(I, hgram); histeq(X, map) falls through.
args = [];
if isempty(in) || numel(in) > 2 || nout > 2
  return;
end
args = {'I', in{1}};
if numel(in) == 2
  v = in{2};
  if ~isnumeric(v) || (size(v, 2) == 3 && size(v, 1) > 1)
    args = [];
  elseif isscalar(v)
    args(end+1:end+2) = {'n', double(v)};
  else
    args(end+1:end+2) = {'hgram', double(v(:)')};
  end
end
end
