% SPDX-License-Identifier: Apache-2.0
function B = imgaussfilt(A, sigma)
% MATLAB's documented imgaussfilt(A, sigma) for double A, computed directly
% (Octave's image package has none): a (2*ceil(2*sigma)+1)^2 Gaussian
% normalised to sum 1, replicate padding, correlation: a sum of shifted copies.
r = ceil(2 * sigma);
[x, y] = meshgrid(-r:r, -r:r);
h = exp(-(x.^2 + y.^2) / (2 * sigma^2));
h = h / sum(h(:));
[m, n] = size(A);
B = zeros(m, n);
for di = -r:r
  rows = min(max((1:m) + di, 1), m);
  for dj = -r:r
    cols = min(max((1:n) + dj, 1), n);
    B = B + h(di + r + 1, dj + r + 1) * A(rows, cols);
  end
end
end
