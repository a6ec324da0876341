% SPDX-License-Identifier: Apache-2.0
function test_examples()
% Examples of MathWorks' documentation pages of the shadowed functions, and
% small cases, each checked against values computed by hand or by brute
% force here (never by OpenIPT).
shadow = fileparts(which('openipt_mex'));
for f = {'conv2', 'imfilter', 'imcomplement', 'padarray', 'bwdist', 'integralImage', 'imdilate', 'imerode', ...
         'medfilt2', 'im2double', 'im2uint8', 'rgb2gray', 'imrotate', 'imresize', 'imcrop', 'imadjust', 'imhist'}
  expect(strcmp(fileparts(which(f{1})), shadow), '%s is not OpenIPT''s shadow: %s', f{1}, which(f{1}));
end

% imcomplement: X = uint8([255 10 75; 44 225 100]) (documentation example).
X = uint8([255 10 75; 44 225 100]);
expect(isequal(imcomplement(X), uint8([0 245 180; 211 30 155])), 'imcomplement uint8');
expect(isequal(imcomplement([0 0.25; 1 0.5]), [1 0.75; 0 0.5]), 'imcomplement double');
expect(isequal(imcomplement(logical([1 0])), logical([0 1])), 'imcomplement logical');

% padarray: A = [1 2; 3 4], padarray(A, [3 2]) and the 'pre'/'replicate' forms.
A = [1 2; 3 4];
B = zeros(8, 6); B(4:5, 3:4) = A;
expect(isequal(padarray(A, [3 2]), B), 'padarray constant');
expect(isequal(padarray([1 2 3 4], 3, 'pre'), [1 2 3 4; zeros(3, 4)]([2 3 4 1], :)), 'padarray pre');
expect(isequal(padarray(A, [1 1], 'replicate', 'post'), [1 2 2; 3 4 4; 3 4 4]), 'padarray replicate post');
expect(isequal(padarray(uint8(A), [0 1], 9), uint8([9 1 2 9; 9 3 4 9])), 'padarray padval');

% bwdist: bw = zeros(5,5); bw(2,2) = 1; bw(4,4) = 1 (documentation example).
bw = zeros(5, 5); bw(2, 2) = 1; bw(4, 4) = 1;
[D, IDX] = bwdist(bw);
[c, r] = meshgrid(1:5, 1:5);
d1 = hypot(r - 2, c - 2); d2 = hypot(r - 4, c - 4);
expect(isa(D, 'single') && max(abs(D(:) - single(min(d1(:), d2(:))))) == 0, 'bwdist D');
expect(isa(IDX, 'uint32'), 'bwdist IDX class %s', class(IDX));
near = ifelse_idx(d1, d2, sub2ind([5 5], 2, 2), sub2ind([5 5], 4, 4));
tie = d1 == d2;
expect(all(IDX(~tie) == near(~tie)), 'bwdist IDX');
expect(all(ismember(IDX(tie), uint32([7 19]))), 'bwdist IDX at ties');
Dc = bwdist(bw, 'cityblock');
expect(isequal(Dc, single(min(abs(r - 2) + abs(c - 2), abs(r - 4) + abs(c - 4)))), 'bwdist cityblock');

% integralImage: I = magic(5) (documentation example): J = zero row and
% column, then cumulative sums.
I = magic(5);
J = integralImage(I);
expect(isequal(J, [zeros(1, 6); zeros(5, 1), cumsum(cumsum(I, 1), 2)]), 'integralImage');

% conv2: sizes of the full, same and valid parts (documentation example
% A = rand(3), B = rand(4)) and values by brute force.
rand('seed', 7);
A = rand(3); B = rand(4);
Cf = conv2(A, B);
expect(isequal(size(Cf), [6 6]) && isequal(size(conv2(A, B, 'same')), [3 3]), 'conv2 sizes');
ref = zeros(6);
for i = 1:3
  for j = 1:3
    ref(i:i+3, j:j+3) = ref(i:i+3, j:j+3) + A(i, j) * B;
  end
end
expect(max(abs(Cf(:) - ref(:))) < 1e-14, 'conv2 full');
expect(max(max(abs(conv2(A, B, 'same') - ref(3:5, 3:5)))) < 1e-14, 'conv2 same');
expect(isempty(conv2(A, B, 'valid')), 'conv2 valid of a smaller A');
u = [1; 2; 1]; v = [1 0 -1]; M = magic(6);
expect(max(max(abs(conv2(u, v, M) - conv2_ref(conv2_ref(M, u), v)))) < 1e-12, 'conv2(u, v, A)');
expect(isa(conv2(single(A), single(B)), 'single'), 'conv2 single');

% imfilter: correlation, zero padding and 'same' by default; class of A.
h = [0 1 0; 1 -4 1; 0 1 0];
M = magic(4);
P = zeros(6); P(2:5, 2:5) = M;
ref = zeros(4);
for i = 1:4
  for j = 1:4
    ref(i, j) = sum(sum(P(i:i+2, j:j+2) .* h));
  end
end
expect(isequal(imfilter(M, h), ref), 'imfilter');
R = imfilter(uint8(M), h);
expect(isa(R, 'uint8') && isequal(R, uint8(max(ref, 0))), 'imfilter uint8 saturates');
expect(isequal(size(imfilter(M, ones(3), 'full')), [6 6]), 'imfilter full');

% imdilate / imerode: BW = zeros(9,10); BW(4:6,4:7) = 1 with a 3x3 square
% (documentation example): the block grows / shrinks by one pixel.
BW = false(9, 10); BW(4:6, 4:7) = true;
G = false(9, 10); G(3:7, 3:8) = true;
expect(isequal(imdilate(BW, strel('square', 3)), G), 'imdilate');
E = false(9, 10); E(5, 5:6) = true;
expect(isequal(imerode(BW, strel('square', 3)), E), 'imerode');
expect(isequal(imdilate(uint8(magic(3)), ones(1, 3)), uint8([8 8 6; 5 7 7; 9 9 9])), 'imdilate uint8 row');
expect(isequal(imerode(uint8(magic(3)), [1 1 1]), uint8([1 1 1; 3 3 5; 4 2 2])), 'imerode uint8 row');

% medfilt2: 3x3 median with zero padding, by hand.
M = magic(4);
P = zeros(6); P(2:5, 2:5) = M;
ref = zeros(4);
for i = 1:4
  for j = 1:4
    w = P(i:i+2, j:j+2);
    ref(i, j) = median(w(:));
  end
end
expect(isequal(medfilt2(M), ref), 'medfilt2');

% im2double / im2uint8 / rgb2gray: the documented scalings.
I8 = reshape(uint8(linspace(1, 255, 25)), [5 5]);
expect(isequal(im2double(I8), double(I8) / 255), 'im2double uint8');
expect(isequal(im2double(int16([-32768 0 32767])), ([-32768 0 32767] + 32768) / 65535), 'im2double int16');
expect(isequal(im2uint8([0 0.5 1 -1 2]), uint8([0 128 255 0 255])), 'im2uint8 double');
expect(isequal(im2uint8(uint16([0 257 65535])), uint8([0 1 255])), 'im2uint8 uint16');
rgb = cat(3, [1 0; 0 0.5], [0 1; 0 0.5], [0 0; 1 0.5]);
g = rgb2gray(rgb);
w = [0.298936021293775 0.587043074451121 0.114020904255103];
expect(max(max(abs(g - [w(1) w(2); w(3) 0.5]))) < 1e-15, 'rgb2gray weights');

% imrotate: 90 degrees is rot90; imresize 'nearest' by 2 repeats pixels.
M = magic(4);
expect(isequal(imrotate(M, 90), rot90(M)), 'imrotate 90');
expect(isequal(imresize([1 2; 3 4], 2, 'nearest'), kron([1 2; 3 4], ones(2))), 'imresize nearest');
expect(isequal(size(imresize(zeros(10, 20), [5 7])), [5 7]), 'imresize size');

% imcrop: rect = [xmin ymin width height] takes columns xmin..xmin+width.
M = magic(6);
expect(isequal(imcrop(M, [2 3 2 1]), M(3:4, 2:4)), 'imcrop');

% imadjust: [low_in high_in] to [0 1] linearly, clipped.
expect(max(abs(imadjust([0 0.2 0.5 0.8 1], [0.2 0.8], [0 1]) - [0 0 0.5 1 1])) < 1e-15, 'imadjust');
% [] for [low_in high_in] is [0 1], not the stretchlim limits: 0.25 + 0.5*x,
% and int16 comes back unchanged.
expect(max(abs(imadjust([0 0.2 0.5 0.8 1], [], [0.25 0.75]) - [0.25 0.35 0.5 0.65 0.75])) < 1e-15, 'imadjust []');
expect(isequal(imadjust(int16([1 2 3 4 5 6]), []), int16([1 2 3 4 5 6])), 'imadjust int16 []');

% imhist: counts of 256 bins for uint8, 2 for logical; binLocations.
[counts, x] = imhist(uint8([0 0 1 255]));
expect(isequal(size(counts), [256 1]) && counts(1) == 2 && counts(2) == 1 && counts(256) == 1, 'imhist counts');
expect(isequal(x, (0:255)'), 'imhist binLocations');

% mean2, mat2gray, fspecial, rgb2hsv, imregionalmax, ordfilt2, stdfilt: by hand.
expect(mean2(uint8([1 2; 3 5])) == 2.75, 'mean2');
expect(isequal(mat2gray([0 5 10]), [0 0.5 1]) && isequal(mat2gray([0 5 10], [2 6]), [0 0.75 1]), 'mat2gray');
expect(isequal(fspecial('average'), ones(3) / 9) && isequal(fspecial('sobel'), [1 2 1; 0 0 0; -1 -2 -1]), 'fspecial');
g = fspecial('gaussian', 3, 1);
[x, y] = meshgrid(-1:1);
ref = exp(-(x.^2 + y.^2) / 2); ref = ref / sum(ref(:));
expect(max(abs(g(:) - ref(:))) < 1e-15, 'fspecial gaussian');
hsv = rgb2hsv(cat(3, [1 0 0], [0 1 0], [0 0 1]));
expect(max(max(abs(hsv(:, :, 1) - [0 1/3 2/3]))) < 1e-15 && all(hsv(:, :, 2) == 1) && all(hsv(:, :, 3) == 1), 'rgb2hsv');
R = imregionalmax([1 1 1 1; 1 5 1 1; 1 1 1 7]);
expect(isequal(R, logical([0 0 0 0; 0 1 0 0; 0 0 0 1])), 'imregionalmax');
expect(isequal(ordfilt2(magic(3), 9, true(3)), imdilate_max(magic(3))), 'ordfilt2 max');
expect(max(max(abs(stdfilt(ones(4)) - zeros(4)))) == 0, 'stdfilt of a constant');
end

function B = imdilate_max(A)
% 3x3 maximum with zero padding (ordfilt2's padding).
P = zeros(size(A) + 2);
P(2:end-1, 2:end-1) = A;
B = zeros(size(A));
for i = 1:size(A, 1)
  for j = 1:size(A, 2)
    w = P(i:i+2, j:j+2);
    B(i, j) = max(w(:));
  end
end
end

function idx = ifelse_idx(d1, d2, i1, i2)
idx = uint32(i1 * (d1 < d2) + i2 * (d1 >= d2));
end

function C = conv2_ref(A, k)
% Full 2-D convolution by shifting.
[m, n] = size(A);
[p, q] = size(k);
C = zeros(m + p - 1, n + q - 1);
for i = 1:p
  for j = 1:q
    C(i:i+m-1, j:j+n-1) = C(i:i+m-1, j:j+n-1) + k(i, j) * A;
  end
end
end
