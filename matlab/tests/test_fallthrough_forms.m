% SPDX-License-Identifier: Apache-2.0
function test_fallthrough_forms()
% Forms of imresize, padarray, fspecial, edge, imerode and imrotate that
% OpenIPT does not implement reach the next function on the path; the forms
% it does implement stay on OpenIPT.
shadow = fileparts(which('openipt_mex'));
in = uint8([116 227 153  69 146 194  59 130 139 106
              2  47 137 249  90  75  16  24 158  44
            155  68  46  84 166 156  69 204  32 152
             71 221 137 230 210 153 192 115  30 118
            107 143 108  52  51  73 101  21 175  90
             54 158 143  77  26 168 113 229 165 225
              9  47 133 135 130 207 236  43  19  73]);

% imresize: one NaN in the size keeps the aspect ratio on OpenIPT: the scale
% is 15/10 = 1.5 for both dimensions, so the result is imresize(in, 1.5);
% 10.5 rows beside a NaN is the same scale (7 * 1.5), 11 rows by ceil.
ref = imresize(in, 1.5);
expect(isequal(size(ref), [11 15]), 'imresize 1.5 size');
expect(isequal(imresize(in, [NaN 15]), ref), 'imresize [NaN 15]');
expect(isequal(imresize(in, [10.5 NaN]), ref), 'imresize [10.5 NaN]');
expect(isequal(imresize(in, 'OutputSize', [10.5 NaN]), ref), 'imresize OutputSize [10.5 NaN]');
% Any number of planes stays on OpenIPT, each plane resized as on its own
% (MATLAB resizes the first two dimensions of an N-D array).
for planes = [2 4]
  A = rand(5, 4, planes);
  mean2(in);  % a stale dispatch record would name ipt.mean2
  B = imresize(A, 2);
  e = openipt.explain();
  expect(strcmp(e.op, 'ipt.imresize') && isequal(size(B), [10 8 planes]), ...
         sprintf('imresize %d planes not on OpenIPT', planes));
  for p = 1:planes
    expect(isequal(B(:, :, p), imresize(A(:, :, p), 2)), sprintf('imresize %d planes, plane %d', planes, p));
  end
end
% Four dimensions and a method name MATLAB does not list go to the next
% imresize (Octave's refuses four dimensions: the same error either way).
A4 = rand(5, 4, 2, 2);
[got, got_err] = outcome(@() imresize(A4, 2));
[want, want_err] = outcome(@() without(shadow, @() imresize(A4, 2)));
expect(isequal(got, want) && strcmp(got_err, want_err), 'imresize 4-D');
expect(isequal(imresize(in, 1.5, 'linear'), without(shadow, @() imresize(in, 1.5, 'linear'))), ...
       'imresize linear');

% padarray: complex values and padding along the planes.
expect(isequal(padarray([1; 2], 1, 1i), [1i; 1; 2; 1i]), 'padarray complex padval');
P = padarray([1 2 3; 4 5 6], [3 2 1]);
expect(isequal(size(P), [8 7 3]) && isequal(P(4:5, 3:5, 2), [1 2 3; 4 5 6]) && nnz(P) == 6, ...
       'padarray along the planes');
% A zero third element is plain 2-D padding, on OpenIPT.
expect(isequal(padarray([1 2], [1 1 0]), [0 0 0 0; 0 1 2 0; 0 0 0 0]), 'padarray [1 1 0]');

% fspecial: an N-D size.
expect(isequal(fspecial('average', [4 5 1 2]), repmat(1/40, [4 5 1 2])), 'fspecial N-D average');

% edge: a direction or thinning option given twice is no documented form.
expect_fails(@() edge(rand(10), 'sobel', 'thinning', 'nothinning'), 'edge thinning twice');
expect_fails(@() edge(rand(10), 'sobel', 'both', 'both'), 'edge direction twice');
% Roberts takes a direction (MathWorks' syntax), on OpenIPT.
expect(islogical(edge(rand(10), 'roberts', 'both', 'thinning')), 'edge roberts direction');

% imerode/imdilate: a neighbourhood is 0s and 1s.
expect_fails(@() imerode(ones(10), 45), 'imerode nhood 45');
expect_fails(@() imdilate(ones(10), 45), 'imdilate nhood 45');

% Octave's magic colon (the next function's default) reaches the next function.
if exist('OCTAVE_VERSION', 'builtin')
  got = eval('imrotate(eye(12), 20, ''bilinear'', :, 0)');
  want = without(shadow, @() imrotate(eye(12), 20, 'bilinear', 'loose', 0));
  expect(isequal(got, want), 'imrotate with a magic colon');
end
end

function expect_fails(f, what)
failed = false;
try
  f();
catch
  failed = true;
end
expect(failed, '%s: no error', what);
end

function [out, message] = outcome(f)
% f()'s result, or its error message.
out = [];
message = '';
try
  out = f();
catch err
  message = err.message;
end
end
