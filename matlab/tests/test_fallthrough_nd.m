% SPDX-License-Identifier: Apache-2.0
function test_fallthrough_nd()
% N-D arrays and argument shapes MATLAB's normxcorr2, wiener2 and radon do
% not take (Octave's extensions) run the next function on the path; their
% MATLAB forms stay on OpenIPT.
shadow = fileparts(which('openipt_mex'));

% normxcorr2: a 3-D template and image go to Octave's N-D version.
a = reshape(mod((1:6*5*4) * 7, 11), 6, 5, 4);
t = a(2:4, 2:4, 2:3);
expect(isequal(normxcorr2(t, a), without(shadow, @() normxcorr2(t, a))), 'normxcorr2 N-D');
% The 2-D form is OpenIPT's: the template [0; 1] over A = [0; 1; 5] lies
% on A(1:2) = [0; 1] at C(2), where the correlation is 1 by hand.
c = normxcorr2([0; 1], [0; 1; 5]);
e = openipt.explain();
expect(strcmp(e.op, 'ipt.normxcorr2') && abs(c(2) - 1) < 1e-12, 'normxcorr2 2-D not on OpenIPT');

% wiener2: an N-D image, and a window of three sizes, go to Octave's.
im = zeros(8, 6, 3);
im(4, 3, 2) = 1;
expect(isequal(wiener2(im, [3 3]), without(shadow, @() wiener2(im, [3 3]))), 'wiener2 N-D');
im2 = magic(6) / 36;
expect(isequal(wiener2(im2, [3 3 3]), without(shadow, @() wiener2(im2, [3 3 3]))), 'wiener2 3 sizes');
wiener2(im2, [3 3]);
e = openipt.explain();
expect(strcmp(e.op, 'ipt.wiener2'), 'wiener2 2-D not on OpenIPT');

% radon: a theta that is a matrix is not a scalar or vector: the next radon
% decides (Octave's refuses it); a vector theta is OpenIPT's.
try
  radon(ones(2), ones(2));
  error('openipt:test', 'no error');
catch err
  expect(~strcmp(err.identifier, 'openipt:test') && isempty(strfind(err.message, 'openipt_mex')), ...
         'radon matrix theta did not fall through');
end
radon(ones(2), [0 45]);
e = openipt.explain();
expect(strcmp(e.op, 'ipt.radon'), 'radon vector theta not on OpenIPT');
end
