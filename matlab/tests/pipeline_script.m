% SPDX-License-Identifier: Apache-2.0
% A script as a MATLAB user writes it, with nothing OpenIPT-specific: it
% reads a PNG, converts it, filters it, finds edges and dilates them.
RGB = imread('scene.png');
I = rgb2gray(RGB);
D = im2double(I);
F = imgaussfilt(D, 2);
E = edge(F, 'canny');
BW = imdilate(E, strel('disk', 2, 0));
U = im2uint8(F);
M = medfilt2(I);
H = imfilter(D, fspecial('average', 3), 'replicate');
C = conv2(D, [1 2 1; 2 4 2; 1 2 1] / 16, 'same');
ER = imerode(I, strel('square', 3));
S = edge(D, 'sobel');
