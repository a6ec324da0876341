% SPDX-License-Identifier: Apache-2.0
function args = imlincomb(nout, in)
% imlincomb(K1, A1, K2, A2, ..., Kn, An), then optionally the offset K; an
% output class ('uint8', ...) as the last argument falls through.
args = [];
n = numel(in);
if n < 2 || nout > 1 || ischar(in{end}) || isa(in{end}, 'string')
  return;
end
images = floor(n / 2);
if images > 7
  return;
end
K = zeros(1, images + mod(n, 2));
args = {};
for k = 1:images
  K(k) = double(in{2 * k - 1});
  args(end+1:end+2) = {sprintf('A%d', k), in{2 * k}};
end
if mod(n, 2) == 1
  K(end) = double(in{end});
end
args = [{'K', K}, args];
end
