% SPDX-License-Identifier: Apache-2.0
function test_fallthrough()
% Forms, options and classes OpenIPT does not implement run the next
% function of that name on the path (here Octave's image package and core);
% the path is as before afterwards, also when that function fails.
shadow = fileparts(which('openipt_mex'));
before = path();
A = magic(5) > 12;

% An option: imdilate's 'full' shape (Octave's result, computed without the shadows).
got = imdilate(A, ones(3), 'full');
expect(isequal(path(), before) && strcmp(fileparts(which('imdilate')), shadow), 'path changed');
want = without(shadow, @() imdilate(A, ones(3), 'full'));
expect(isequal(got, want) && isequal(size(got), [7 7]), 'imdilate full fell through wrong');

% A form: im2double(X, 'indexed') is X + 1 for integer X (MATLAB's documentation).
expect(isequal(im2double(uint8([0 1 2]), 'indexed'), [1 2 3]), 'im2double indexed');

% A class: medfilt2 of int8 (not in the catalogue), conv2 of uint8 (Octave's builtin).
I8 = int8(magic(4));
expect(isequal(medfilt2(I8), without(shadow, @() medfilt2(I8))), 'medfilt2 int8');
expect(isequal(conv2(uint8(magic(3)), uint8(ones(2))), without(shadow, @() conv2(uint8(magic(3)), uint8(ones(2))))), ...
       'conv2 uint8');

% A form: stretchlim and imadjust of an image of 6 channels (MATLAB documents
% grayscale and RGB images only).
I6 = uint16(reshape(1:600, 10, 10, 6));
expect(isequal(stretchlim(I6), without(shadow, @() stretchlim(I6))), 'stretchlim 6 channels');
expect(isequal(imadjust(I6, [0.001 0.005]), without(shadow, @() imadjust(I6, [0.001 0.005]))), 'imadjust 6 channels');

% imhist without outputs plots in MATLAB: not OpenIPT's; with outputs it is.
[c, x] = imhist(uint8([1 2 2]));
e = openipt.explain();
expect(strcmp(e.op, 'ipt.imhist') && c(3) == 2 && x(end) == 255, 'imhist with outputs');

% The next function fails: its error comes through, and the path is restored.
try
  imdilate(A, ones(3), 'no_such_shape');
  error('openipt:test', 'no error');
catch err
  expect(~strcmp(err.identifier, 'openipt:test'), 'the fallen-through error was lost');
end
expect(isequal(path(), before), 'path not restored after an error');
expect(strcmp(fileparts(which('imdilate')), shadow), 'imdilate is not the shadow after an error');
end
