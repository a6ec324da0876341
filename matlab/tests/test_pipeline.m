% SPDX-License-Identifier: Apache-2.0
function test_pipeline()
% The issue's script (pipeline_script.m, unchanged) on OpenIPT and on
% Octave's own functions. Compared with Octave where Octave follows MATLAB's
% documentation, else with hand-checked properties or brute force.
here = fileparts(mfilename('fullpath'));
shadow = fileparts(which('openipt_mex'));
work = tempname();
mkdir(work);
cleanup = onCleanup(@() rmdir(work, 's'));
old = cd(work);
back = onCleanup(@() cd(old));

% The scene: a bright rectangle and a darker disk on a dark background.
scene = zeros(96, 128, 3, 'uint8');
scene(:, :, 1) = 20; scene(:, :, 2) = 30; scene(:, :, 3) = 40;
scene(21:60, 31:90, 1) = 220; scene(21:60, 31:90, 2) = 200; scene(21:60, 31:90, 3) = 180;
[xx, yy] = meshgrid(1:128, 1:96);
disk = (xx - 100).^2 + (yy - 75).^2 <= 12^2;
for c = 1:3
  p = scene(:, :, c);
  p(disk) = 120 + 10 * c;
  scene(:, :, c) = p;
end
imwrite(scene, 'scene.png');

% On OpenIPT: the shadowing folder is first on the path.
for f = {'rgb2gray', 'im2double', 'imgaussfilt', 'edge', 'imdilate', 'im2uint8', 'medfilt2', 'imfilter', 'conv2', 'imerode'}
  expect(strcmp(fileparts(which(f{1})), shadow), '%s is not OpenIPT''s: %s', f{1}, which(f{1}));
end
run_script(fullfile(here, 'pipeline_script.m'));
ipt = evalin('base', 'struct(''I'', I, ''D'', D, ''F'', F, ''E'', E, ''BW'', BW, ''U'', U, ''M'', M, ''H'', H, ''C'', C, ''ER'', ER, ''S'', S)');
e = openipt.explain();
expect(strcmp(e.op, 'ipt.edge'), 'the last call did not run on OpenIPT');

% On Octave's own functions, with a brute-force imgaussfilt (Octave has none).
rmpath(shadow);
addpath(fullfile(here, 'reference'));
restore = onCleanup(@() addpath(shadow));
run_script(fullfile(here, 'pipeline_script.m'));
oct = evalin('base', 'struct(''I'', I, ''D'', D, ''F'', F, ''E'', E, ''BW'', BW, ''U'', U, ''M'', M, ''H'', H, ''C'', C, ''ER'', ER, ''S'', S)');
rmpath(fullfile(here, 'reference'));
clear restore;

% Classes as MATLAB documents them.
classes = {'I', 'uint8'; 'D', 'double'; 'F', 'double'; 'E', 'logical'; 'BW', 'logical'; 'U', 'uint8'; ...
           'M', 'uint8'; 'H', 'double'; 'C', 'double'; 'ER', 'uint8'; 'S', 'logical'};
for k = 1:rows(classes)
  v = ipt.(classes{k, 1});
  expect(isa(v, classes{k, 2}), '%s is %s, expected %s', classes{k, 1}, class(v), classes{k, 2});
  expect(isequal(size(v), [96 128]), '%s has size %s', classes{k, 1}, mat2str(size(v)));
end
% Where Octave follows MATLAB's documentation: equal.
for f = {'I', 'D', 'U', 'M', 'ER'}
  expect(isequal(ipt.(f{1}), oct.(f{1})), '%s differs from Octave''s', f{1});
end
for f = {'F', 'H', 'C'}
  d = max(abs(ipt.(f{1})(:) - oct.(f{1})(:)));
  expect(d <= 1e-12, '%s differs from the reference by %g', f{1}, d);
end
% rgb2gray's documented weights, by hand at two pixels.
expect(ipt.I(40, 60) == round(0.298936021293775 * 220 + 0.587043074451121 * 200 + 0.114020904255103 * 180), 'rgb2gray');
expect(ipt.I(1, 1) == round(0.298936021293775 * 20 + 0.587043074451121 * 30 + 0.114020904255103 * 40), 'rgb2gray');
% Canny (Octave's own canny differs from MATLAB's: docs/matlab.md): every
% edge pixel lies within 2 pixels of a boundary of the scene, and each side
% of the rectangle is found along most of its length.
boundary = false(96, 128);
rect = false(96, 128); rect(21:60, 31:90) = true;
for region = {rect, disk}
  r = region{1};
  boundary = boundary | (r & ~imerode_ref(r)) | (~r & imdilate_ref(r, true(3)));
end
near = imdilate_ref(boundary, true(5));
expect(any(ipt.E(:)), 'canny found no edges');
expect(all(near(ipt.E)), 'canny edge pixels away from the boundaries: %d', nnz(ipt.E & ~near));
band = imdilate_ref(ipt.E, true(5));
for side = {[20 21; 31 90], [60 61; 31 90], [21 60; 30 31], [21 60; 90 91]}
  s = side{1};
  seg = false(96, 128);
  seg(s(1, 1):s(1, 2), s(2, 1):s(2, 2)) = true;
  cover = nnz(band & seg & boundary) / nnz(seg & boundary);
  expect(cover >= 0.9, 'canny covers %.0f%% of a side of the rectangle', 100 * cover);
end
% imdilate by brute force: the maximum over the disk's neighbourhood.
nh = logical([0 0 1 0 0; 0 1 1 1 0; 1 1 1 1 1; 0 1 1 1 0; 0 0 1 0 0]);
expect(isequal(getnhood(strel('disk', 2, 0)), nh), 'strel(''disk'', 2, 0) is not the documented diamond-like disk');
expect(isequal(ipt.BW, imdilate_ref(ipt.E, nh)), 'imdilate differs from the brute-force dilation');
% Sobel: the edges found lie on the boundaries too.
expect(any(ipt.S(:)) && all(near(ipt.S)), 'sobel edge pixels away from the boundaries');
end

function run_script(file)
% Runs the script from the working folder, where its PNG is (run() would
% change to the script's own folder).
copyfile(file, fullfile(pwd, 'pipeline_copy.m'));
evalin('base', 'clear -variables');
evalin('base', 'pipeline_copy;');
end

function B = imdilate_ref(A, nh)
% Flat dilation, zero outside: B(p) = any A(p - q) over q in the
% neighbourhood (centre floor((size+1)/2)), by shifting.
[m, n] = size(A);
[r, c] = size(nh);
cr = floor((r + 1) / 2); cc = floor((c + 1) / 2);
B = false(m, n);
for i = 1:r
  for j = 1:c
    if nh(i, j)
      di = i - cr; dj = j - cc;
      S = false(m, n);
      S(max(1, 1 + di):min(m, m + di), max(1, 1 + dj):min(n, n + dj)) = ...
          A(max(1, 1 - di):min(m, m - di), max(1, 1 - dj):min(n, n - dj));
      B = B | S;
    end
  end
end
end

function B = imerode_ref(A)
B = ~imdilate_ref(~A, true(3));
end
