% SPDX-License-Identifier: Apache-2.0
function test_imwarp()
% imwarp with 2-D affine and projective transformation objects, with
% 'SmoothEdges', true (A padded with the fill value) against hand-computed
% values and a brute-force inverse mapping written here, and with the
% default sharp edges against interp2 (never OpenIPT's output); the forms
% OpenIPT does not implement reach the next imwarp on the path (in Octave,
% whose image package has none, an openipt:notFound error from the
% fall-through).
shadow = fileparts(which('openipt_mex'));
expect(strcmp(fileparts(which('imwarp')), shadow), 'imwarp is not OpenIPT''s shadow: %s', which('imwarp'));
% Transformation classes this MATLAB or Octave lacks get a stand-in that
% holds the matrix under the class's name and property.
stand_ins = make_stand_ins({'projective2d', 'T'; 'rigid2d', 'T'; 'affinetform2d', 'A'; 'transltform2d', 'A'});
smooth = {'SmoothEdges', true};

% Integer translation [2 1] on A's own grid (imref2d(size(A))): every
% sample falls on a pixel centre, so B is A moved two columns right and one
% row down, the fill value in the uncovered band, whatever the method.
A = reshape(1:20, 4, 5) .^ 2;
t = affine2d([1 0 0; 0 1 0; 2 1 1]);
R = imref2d(size(A));
E = zeros(4, 5); E(2:4, 3:5) = A(1:3, 1:3);
mean2(A);  % a stale dispatch record would name ipt.mean2
B = imwarp(A, t, 'OutputView', R, smooth{:});
e = openipt.explain();
expect(strcmp(e.op, 'ipt.imwarp'), 'imwarp did not run on OpenIPT (%s)', e.op);
expect(isa(B, 'double') && isequal(B, E), 'translation [2 1], linear');
expect(isequal(imwarp(A, t, 'nearest', 'OutputView', R, smooth{:}), E), 'translation [2 1], nearest');
Bc = imwarp(A, t, 'cubic', 'OutputView', R, smooth{:});
expect(max(abs(Bc(:) - E(:))) <= 1e-12 * max(abs(E(:))), 'translation [2 1], cubic');
E(E == 0) = 7;
expect(isequal(imwarp(A, t, 'outputview', R, 'Fill', 7, 'smoothedges', true), E), ...
       'translation [2 1], FillValues 7 (names in any case, leading parts)');
% The newer premultiply classes: transltform2d's A is [1 0 tx; 0 1 ty; 0 0 1].
expect(isequal(imwarp(A, transltform2d([1 0 2; 0 1 1; 0 0 1]), 'OutputView', R, 'FillValues', 7, smooth{:}), E), ...
       'transltform2d');
% On the default grid, B follows the translated image: B is A.
expect(isequal(imwarp(A, t, smooth{:}), A), 'translation [2 1], default grid');

% A quarter turn: [x y] * [0 -1; 1 0] = [y -x] maps A's world limits
% x in [0.5, n + 0.5], y in [0.5, m + 0.5] onto x in [0.5, m + 0.5],
% y in [-n - 0.5, -0.5]: B is n x m, and B(r, c) samples A at column
% u = n + 1 - r, row v = c, which is rot90(A).
A = reshape(1:12, 3, 4);
q = affine2d([0 -1 0; 1 0 0; 0 0 1]);
expect(isequal(imwarp(A, q, 'nearest', smooth{:}), rot90(A)), 'quarter turn, nearest');
expect(isequal(imwarp(uint8(A), q, 'nearest', smooth{:}), uint8(rot90(A))), 'quarter turn, uint8');
expect(isequal(imwarp(A, rigid2d([0 -1 0; 1 0 0; 0 0 1]), 'nearest', smooth{:}), rot90(A)), 'quarter turn, rigid2d');

% A general affine (rotation, shear, scale, translation) on an explicit
% grid that covers A, its padded border and beyond, with non-square pixels.
rand('seed', 11);
A = rand(7, 9) * 10;
T = [0.9 0.35 0; -0.25 1.1 0; 1.3 -0.7 1];
R = imref2d([13 15], [-2.5 12.5], [-1.3 10.4]);
ref = [13 15 -2.5 12.5 -1.3 10.4];
for method = {'nearest', 'linear', 'cubic'}
  m = method{1};
  [E, sure] = warp_ref(A, T, ref, m, 3);
  B = imwarp(A, affine2d(T), m, 'OutputView', R, 'FillValues', 3, smooth{:});
  expect(isequal(size(B), [13 15]), 'affine %s: size', m);
  expect(any(B(:) == 3) && any(B(:) ~= 3), 'affine %s: the grid covers A and the fill', m);
  expect(max(abs(B(sure) - E(sure))) <= 1e-12 * max(abs(E(:))), 'affine %s: %g off', m, max(abs(B(sure) - E(sure))));
end
% affinetform2d's A is the transpose of affine2d's T.
[E, sure] = warp_ref(A, T, ref, 'linear', 0);
B = imwarp(A, affinetform2d(T.'), 'OutputView', R, smooth{:});
expect(max(abs(B(sure) - E(sure))) <= 1e-12 * max(abs(E(:))), 'affinetform2d');

% The default grid of a rotation by 30 degrees: the corners of A's world
% limits, turned, bound the output; B keeps A's pixel size, with ceil'd
% counts, and the bounds widen evenly to whole pixels.
A = rand(6, 10);
a = pi / 6;
T = [cos(a) sin(a) 0; -sin(a) cos(a) 0; 0 0 1];
corners = [0.5 0.5 1; 10.5 0.5 1; 0.5 6.5 1; 10.5 6.5 1] * T;
xl = [min(corners(:, 1)) max(corners(:, 1))];
yl = [min(corners(:, 2)) max(corners(:, 2))];
cols = ceil(diff(xl)); rows = ceil(diff(yl));
xl = xl + [-1 1] * (cols - diff(xl)) / 2;
yl = yl + [-1 1] * (rows - diff(yl)) / 2;
B = imwarp(A, affine2d(T), smooth{:});
expect(isequal(size(B), [rows cols]), 'rotation 30: size %dx%d, expected %dx%d', size(B, 1), size(B, 2), rows, cols);
[E, sure] = warp_ref(A, T, [rows cols xl yl], 'linear', 0);
expect(max(abs(B(sure) - E(sure))) <= 1e-12, 'rotation 30, default grid');

% A projective transformation (the last column is not [0; 0; 1]).
A = rand(8, 6) * 100;
T = [1.05 0.1 0.002; 0.08 0.95 -0.003; 2 -1 1];
R = imref2d([12 10], [-1 11], [-2 12]);
for method = {'nearest', 'linear'}
  [E, sure] = warp_ref(A, T, [12 10 -1 11 -2 12], method{1}, 0);
  B = imwarp(A, projective2d(T), method{1}, 'OutputView', R, smooth{:});
  expect(max(abs(B(sure) - E(sure))) <= 1e-12 * max(abs(E(:))), 'projective %s', method{1});
end

% uint8 RGB with one fill value per plane (a column, as MATLAB allows), cast
% to uint8 first (300 saturates to 255); a translation of [0.25 0.5] gives
% samples that are exact in double, rounded half away from zero to uint8.
A = uint8(reshape(0:3:3*59, 4, 5, 3));
fill = [10; 200; 300];
R = imref2d([4 5]);
E = warp_ref(double(A), [1 0 0; 0 1 0; 0.25 0.5 1], [4 5 0.5 5.5 0.5 4.5], 'linear', [10 200 255]);
B = imwarp(A, affine2d([1 0 0; 0 1 0; 0.25 0.5 1]), 'linear', 'OutputView', R, 'FillValues', fill, smooth{:});
expect(isa(B, 'uint8') && isequal(size(B), [4 5 3]), 'uint8 RGB: class %s, size %s', class(B), mat2str(size(B)));
expect(isequal(B, uint8(E)), 'uint8 RGB, per-plane fill');
E = warp_ref(double(A), [1 0 0; 0 1 0; 2 1 1], [4 5 0.5 5.5 0.5 4.5], 'nearest', [9 9 9]);
expect(isequal(imwarp(A, affine2d([1 0 0; 0 1 0; 2 1 1]), 'nearest', 'OutputView', R, 'FillValues', 9, smooth{:}), uint8(E)), ...
       'uint8 RGB, scalar fill');

% The default, sharp edges ('SmoothEdges', false): A is not padded, a
% sample beyond A's outermost pixel centres is the fill value, one inside
% interpolates A alone: interp2 with the fill as its extrapolation value.
A = reshape(mod((1:63) * 37, 101), 7, 9) / 7;
T = [0.9 0.3 0; -0.25 1.05 0; 1.7 -0.6 1];
R = imref2d([8 11], [-0.31 10.69], [0.13 8.13]);  % no sample on a tie of nearest
[xw, yw] = meshgrid(R.XWorldLimits(1) + ((1:11) - 0.5), R.YWorldLimits(1) + ((1:8) - 0.5));
uv = [xw(:) yw(:) ones(numel(xw), 1)] / T;
for method = {'nearest', 'linear'}
  want = reshape(interp2(A, uv(:, 1), uv(:, 2), method{1}, 5), 8, 11);
  got = imwarp(A, affine2d(T), method{1}, 'OutputView', R, 'FillValues', 5);
  expect(isequal(size(got), [8 11]) && max(abs(got(:) - want(:))) < 1e-12, 'sharp edges, %s against interp2', method{1});
  got = imwarp(A, affine2d(T), method{1}, 'OutputView', R, 'FillValues', 5, 'SmoothEdges', false);
  expect(max(abs(got(:) - want(:))) < 1e-12, 'SmoothEdges false, %s', method{1});
end
% Cubic: Keys' kernel reproduces a ramp, and the extrapolated edge
% (3 v(1) - 3 v(2) + v(3)) continues it, so inside A's centres B is the ramp.
A = repmat(10 * (1:6), 4, 1);
B = imwarp(A, affine2d([1 0 0; 0 1 0; -0.25 0 1]), 'cubic', 'OutputView', imref2d([4 6]), 'FillValues', 100);
expect(max(max(abs(B(:, 1:5) - repmat(10 * (1.25:1:5.25), 4, 1)))) < 1e-12 && all(B(:, 6) == 100), 'sharp edges, cubic ramp');

% Forms OpenIPT does not implement go to the next imwarp.
A = magic(5);
t = affine2d([1 0 0; 0 1 0; 2 1 1]);
falls_through(shadow, @() two_outputs(A, t, smooth), '[B, RB] = imwarp(...)');
falls_through(shadow, @() imwarp(A, imref2d(size(A)), t, smooth{:}), 'imwarp(A, RA, tform)');
falls_through(shadow, @() imwarp(A, zeros(5, 5, 2), smooth{:}), 'displacement field');
falls_through(shadow, @() imwarp(A, t, 'bicubic', smooth{:}), 'interp bicubic');
falls_through(shadow, @() imwarp(A, t, 'OutputView', [5 5 0.5 5.5 0.5 5.5], smooth{:}), 'OutputView not an imref2d');
falls_through(shadow, @() imwarp(A, t, 'Bogus', 1, smooth{:}), 'unknown name');
falls_through(shadow, @() imwarp(A, [1 0 0; 0 1 0; 2 1 1], smooth{:}), 'a matrix, not a tform object');
% The explicit namespace refuses them.
expect_error(@() openipt.imwarp(A, t, 'bicubic'), 'openipt:unsupported', 'not implemented by OpenIPT');
B = openipt.imwarp(A, t, 'nearest', 'OutputView', imref2d([5 5]), smooth{:});
expect(isequal(B(2:5, 3:5), A(1:4, 1:3)) && all(B(1, :) == 0) && all(all(B(:, 1:2) == 0)), 'openipt.imwarp');
clear stand_ins;
end

function [B, sure] = warp_ref(A, T, ref, method, fill)
% Brute-force imwarp with 'SmoothEdges', true: output pixel (r, c) of the
% grid ref = [rows cols xmin xmax ymin ymax] has its centre at world (x, y),
% taken back through inv(T) ([u v w] = [x y 1] * inv(T), then u/w, v/w) to
% A's default grid (pixel (i, j) centred at x = j, y = i). A is surrounded by
% the fill value (one per plane): nearest takes pixel (round(v), round(u)),
% linear mixes the four neighbours, cubic the 4x4 with Keys' kernel
% (a = -0.5). sure is false where a nearest sample lies within 1e-9 of a
% tie between two pixels (rounding errors may pick either).
[m, n, P] = size(A);
fill = fill(:)' .* ones(1, P);
rows = ref(1); cols = ref(2);
dx = (ref(4) - ref(3)) / cols; dy = (ref(6) - ref(5)) / rows;
Ti = inv(T);
B = zeros(rows, cols, P);
sure = true(rows, cols, P);
for r = 1:rows
  for c = 1:cols
    s = [ref(3) + (c - 0.5) * dx, ref(5) + (r - 0.5) * dy, 1] * Ti;
    u = s(1) / s(3); v = s(2) / s(3);
    for p = 1:P
      at = @(i, j) pixel(A(:, :, p), m, n, i, j, fill(p));
      switch method
        case 'nearest'
          B(r, c, p) = at(round(v), round(u));
          sure(r, c, p) = abs(abs(u - fix(u)) - 0.5) > 1e-9 && abs(abs(v - fix(v)) - 0.5) > 1e-9;
        case 'linear'
          j = floor(u); i = floor(v); a = u - j; b = v - i;
          B(r, c, p) = (1 - b) * ((1 - a) * at(i, j) + a * at(i, j + 1)) ...
                     + b * ((1 - a) * at(i + 1, j) + a * at(i + 1, j + 1));
        case 'cubic'
          j = floor(u); i = floor(v);
          wx = keys(u - (j-1:j+2)); wy = keys(v - (i-1:i+2));
          acc = 0;
          for ki = 1:4
            for kj = 1:4
              acc = acc + wy(ki) * wx(kj) * at(i - 2 + ki, j - 2 + kj);
            end
          end
          B(r, c, p) = acc;
      end
    end
  end
end
end

function v = pixel(A, m, n, i, j, fill)
if i >= 1 && i <= m && j >= 1 && j <= n
  v = A(i, j);
else
  v = fill;
end
end

function w = keys(d)
% Keys' cubic convolution kernel with a = -0.5.
d = abs(d);
w = (1.5 * d.^3 - 2.5 * d.^2 + 1) .* (d <= 1) ...
  + (-0.5 * d.^3 + 2.5 * d.^2 - 4 * d + 2) .* (d > 1 & d < 2);
end

function out = two_outputs(A, t, smooth)
[B, RB] = imwarp(A, t, smooth{:});
out = {B, RB};
end

function falls_through(shadow, f, what)
% f() does not run on OpenIPT: it gives what the next imwarp gives, or, with
% no other imwarp on the path (Octave), the fall-through's openipt:notFound.
rmpath(shadow);
other = exist('imwarp');
addpath(shadow);
if any(other == [2 3 5 6])
  want = without(shadow, f);
  expect(isequal(f(), want), '%s: not the next imwarp''s result', what);
else
  try
    f();
  catch err
    expect(strcmp(err.identifier, 'openipt:notFound') && ~isempty(strfind(err.message, 'no other imwarp')), ...
           '%s: answered by OpenIPT (%s: %s)', what, err.identifier, err.message);
    return;
  end
  error('openipt:test', '%s: answered by OpenIPT', what);
end
end

function cleanup = make_stand_ins(classes)
% For each {name, property} whose class does not exist, a classdef in a
% temporary folder on the path whose constructor stores its 3x3 argument in
% that property; removed with the returned object.
dir = '';
for k = 1:size(classes, 1)
  if exist(classes{k, 1}) ~= 0
    continue;
  end
  if isempty(dir)
    dir = tempname();
    mkdir(dir);
  end
  fid = fopen(fullfile(dir, [classes{k, 1} '.m']), 'w');
  fprintf(fid, 'classdef %s\n  properties\n    %s\n  end\n  methods\n', classes{k, 1}, classes{k, 2});
  fprintf(fid, '    function obj = %s(M)\n      obj.%s = M;\n    end\n  end\nend\n', classes{k, 1}, classes{k, 2});
  fclose(fid);
end
if isempty(dir)
  cleanup = [];
  return;
end
addpath(dir);
cleanup = onCleanup(@() remove_stand_ins(dir));
end

function remove_stand_ins(dir)
rmpath(dir);
delete(fullfile(dir, '*.m'));
rmdir(dir);
end
